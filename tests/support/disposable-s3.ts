/**
 * An s3rver of the test's own (scripts/s3-server.ts on a free port and a temporary folder), which the test
 * may kill mid-request and start again on the same port and data: the shared S3 is never touched.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { LOCAL_SERVICE_DEFAULTS } from "../../scripts/lib/local-services.ts";
import { freePort } from "./free-port.ts";
import { DisposableProcess } from "./disposable-process.ts";

export class DisposableS3 extends DisposableProcess {
  private constructor(
    port: number,
    dataDir: string,
    readonly bucket: string,
  ) {
    super(port, dataDir);
  }

  static async start(bucket = "gatekeeper-drill"): Promise<DisposableS3> {
    const s3 = new DisposableS3(await freePort(), mkdtempSync(path.join(tmpdir(), "gk-s3-")), bucket);
    await s3.start();
    return s3;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The environment that points the app's processes at this server. */
  get env(): Record<string, string> {
    return {
      S3_ENDPOINT: this.endpoint,
      S3_BUCKET: this.bucket,
      S3_ACCESS_KEY_ID: LOCAL_SERVICE_DEFAULTS.s3AccessKeyId,
      S3_SECRET_ACCESS_KEY: LOCAL_SERVICE_DEFAULTS.s3SecretAccessKey,
    };
  }

  /** Starts the server (again) and resolves once it listens with the bucket configured. */
  async start(): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/s3-server.ts"], {
      env: { ...process.env, S3_SERVER_PORT: String(this.port), S3_SERVER_DATA_DIR: this.dataDir, S3_BUCKET: this.bucket },
      stdio: ["ignore", "pipe", "inherit"],
    });
    this.process = child;
    await new Promise<void>((resolve, reject) => {
      let output = "";
      const onExit = (code: number | null) => reject(new Error(`test s3rver exited during start-up (${code})`));
      child.once("exit", onExit);
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (!output.includes("listening on")) return;
        child.off("exit", onExit);
        child.stdout!.removeAllListeners("data");
        child.stdout!.resume();
        resolve();
      });
    });
  }

  /** Every object key in the bucket (what a user or an operator would see listed). */
  async listKeys(): Promise<string[]> {
    const client = new S3Client({
      endpoint: this.endpoint,
      region: LOCAL_SERVICE_DEFAULTS.s3Region,
      forcePathStyle: true,
      credentials: { accessKeyId: LOCAL_SERVICE_DEFAULTS.s3AccessKeyId, secretAccessKey: LOCAL_SERVICE_DEFAULTS.s3SecretAccessKey },
    });
    try {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    } finally {
      client.destroy();
    }
  }
}
