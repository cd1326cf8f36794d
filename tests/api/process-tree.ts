import { execFileSync } from "node:child_process";
import fs from "node:fs";

// What the tests of copies on every core read of a running product: its Node children, the
// sockets each holds, and a value polled until it is what they wait for.

/** The process ids of `pid`'s Node children: its copies, not the esbuild service tsx starts beside them. */
export function childrenOf(pid: number): number[] {
  let out = "";
  try {
    out = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(pid)], { encoding: "utf8" });
  } catch {
    // ps ends with status 1 when the process has no children
  }
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, command]) => command === "node")
    .map(([id]) => Number(id));
}

export interface TcpSocket {
  local: number;
  remote: number;
  listening: boolean;
}

/** The IPv4 TCP sockets `pid` holds, read from /proc: its file descriptors' socket inodes in the kernel's table. */
export function tcpSocketsOf(pid: number): TcpSocket[] {
  const inodes = new Set<string>();
  const targetOf = (fd: string) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      return ""; // closed meanwhile
    }
  };
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const inode = /^socket:\[(\d+)\]$/.exec(targetOf(fd))?.[1];
    if (inode) inodes.add(inode);
  }
  const port = (address: string) => parseInt(address.split(":")[1]!, 16);
  return fs
    .readFileSync(`/proc/${pid}/net/tcp`, "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length > 9 && inodes.has(fields[9]!))
    .map((fields) => ({ local: port(fields[1]!), remote: port(fields[2]!), listening: fields[3] === "0A" }));
}

export async function eventually<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
