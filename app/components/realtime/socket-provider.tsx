import { useRevalidator } from "@remix-run/react";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { io, type Socket } from "socket.io-client";
import type { ServerEventName, ServerToClientEvents } from "~/modules/realtime/events";

/** The browser's end of the live connection. The client sends no events (docs/domain.md). */
export type AppSocket = Socket<ServerToClientEvents>;
export type SocketStatus = "connecting" | "connected" | "disconnected";

interface SocketContextValue {
  socket: AppSocket | null;
  status: SocketStatus;
}

const SocketContext = createContext<SocketContextValue>({ socket: null, status: "disconnected" });

/**
 * Opens one Socket.IO connection per signed-in browser tab (visitors get none: the server would
 * refuse them anyway, it authenticates from the session cookie). Only ever on the client: effects
 * do not run during SSR.
 *
 * Events are hints and Postgres is the truth, so every *re*connect revalidates the page's loaders:
 * whatever was missed while offline is read again.
 */
export function SocketProvider({
  enabled,
  identity,
  children,
}: {
  enabled: boolean;
  /** Changes when another user signs in in this tab: the socket reconnects with the new session's rooms. */
  identity?: string | number | null;
  children: ReactNode;
}) {
  const [state, setState] = useState<SocketContextValue>({ socket: null, status: "disconnected" });
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  useEffect(() => {
    revalidateRef.current = revalidate;
  }, [revalidate]);

  useEffect(() => {
    if (!enabled) return;
    const socket: AppSocket = io({
      transports: ["websocket", "polling"],
      // Without it a failed WebSocket is retried as a WebSocket forever: networks that block WebSockets
      // must fall back to long-polling (websocket first, polling as fallback).
      tryAllTransports: true,
      withCredentials: true,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      timeout: 20000,
    });
    let connectedBefore = false;
    // While `active`, socket.io keeps retrying by itself; it stops after a server-side refusal
    // (e.g. the session expired) or our own disconnect().
    const settle = () => setState({ socket, status: socket.active ? "connecting" : "disconnected" });
    const onConnect = () => {
      setState({ socket, status: "connected" });
      if (connectedBefore) revalidateRef.current();
      connectedBefore = true;
    };
    socket.on("connect", onConnect);
    // The server lost Redis for a while: events may have been missed, so re-read as after a reconnect.
    const onResync = () => revalidateRef.current();
    socket.on("resync", onResync);
    // The session ended (signed out elsewhere, ended by an admin, the account changed): re-reading the
    // page's data finds no session and goes to the login page.
    socket.on("session:ended", onResync);
    socket.on("disconnect", settle);
    socket.on("connect_error", settle);
    setState({ socket, status: "connecting" });
    return () => {
      socket.off("connect", onConnect);
      socket.off("resync", onResync);
      socket.off("session:ended", onResync);
      socket.off("disconnect", settle);
      socket.off("connect_error", settle);
      socket.disconnect();
      setState({ socket: null, status: "disconnected" });
    };
  }, [enabled, identity]);

  return <SocketContext.Provider value={state}>{children}</SocketContext.Provider>;
}

/** "connecting" | "connected" | "disconnected" (always "disconnected" for visitors and during SSR). */
export function useSocketStatus(): SocketStatus {
  return useContext(SocketContext).status;
}

type Listener = (...args: unknown[]) => void;

/**
 * Subscribes to one server event while the component is mounted. The handler may change on every
 * render: the subscription stays, and always calls the latest handler.
 */
export function useSocketEvent<E extends ServerEventName>(event: E, handler: ServerToClientEvents[E]): void {
  const { socket } = useContext(SocketContext);
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });

  useEffect(() => {
    if (!socket) return;
    const listener: Listener = (...args) => (handlerRef.current as Listener)(...args);
    // socket.io's typed emitter cannot narrow a generic event name; the contract is checked at the call site.
    const untyped = socket as unknown as { on(event: string, fn: Listener): void; off(event: string, fn: Listener): void };
    untyped.on(event, listener);
    return () => untyped.off(event, listener);
  }, [socket, event]);
}
