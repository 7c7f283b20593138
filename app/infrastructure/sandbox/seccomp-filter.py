#!/usr/bin/python3
"""Writes the sandbox's seccomp filter, compiled to BPF, on standard output (docs/decisions/042-code-sandbox.md).

bwrap --seccomp FD loads it just before it starts the program, after its own mounts. Debian's python3-seccomp
binds libseccomp, so the filter is built by the same library (and the same architecture tables) that
systemd, Docker and Flatpak use: a default-allow list that refuses, with EPERM, the system calls a contest
program never needs and an escape or a denial of service would. System calls of any other ABI (i386, x32)
kill the process: libseccomp's filter only allows the native one.
"""
import errno
import sys

import seccomp

REFUSED = [
    # Kernel keyrings, eBPF, performance counters, io_uring: the usual kernel attack surface.
    "keyctl", "add_key", "request_key", "bpf", "perf_event_open",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "userfaultfd",
    # Mounts and namespaces (bwrap has made its own already; --disable-userns also stops new user namespaces).
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    # Looking into or driving other processes.
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd", "process_madvise",
    # The machine itself.
    "reboot", "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "swapon", "swapoff", "acct", "quotactl", "syslog", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "iopl", "ioperm", "sethostname", "setdomainname", "vhangup", "lookup_dcookie",
    "name_to_handle_at", "open_by_handle_at", "fanotify_init", "personality",
    "mbind", "migrate_pages", "move_pages", "set_mempolicy",
]


def main() -> None:
    flt = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in REFUSED:
        try:
            flt.add_rule(seccomp.ERRNO(errno.EPERM), name)
        except (RuntimeError, ValueError):
            # A name this libseccomp does not know on this architecture: nothing to refuse.
            pass
    # vsock reaches the hypervisor's services (a runner on a VM) and no network namespace isolates it: no such socket.
    # The kernel reads the family as an int: compared on its low 32 bits, or a value with high bits set would pass.
    flt.add_rule(seccomp.ERRNO(errno.EPERM), "socket", seccomp.Arg(0, seccomp.MASKED_EQ, 0xFFFFFFFF, 40))  # AF_VSOCK
    # A terminal's input queue can be filled from inside (TIOCSTI): refused as well, though --new-session already detaches.
    flt.add_rule(seccomp.ERRNO(errno.EPERM), "ioctl", seccomp.Arg(1, seccomp.MASKED_EQ, 0xFFFFFFFF, 0x5412))
    sys.stdout.flush()
    flt.export_bpf(sys.stdout.buffer)
    sys.stdout.buffer.flush()


main()
