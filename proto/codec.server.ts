import path from "node:path";
import protobuf from "protobufjs";

// The .proto files are read at run time from proto/ under the project root (the working
// directory of every process, or ECFX_ROOT), so console and API share one definition.
let root: protobuf.Root | undefined;

export function protoRoot(): protobuf.Root {
  if (!root) {
    const dir = path.join(process.env.ECFX_ROOT ?? process.cwd(), "proto");
    root = protobuf.loadSync(["security_role.proto", "firm.proto", "auth.proto"].map((f) => path.join(dir, f)));
  }
  return root;
}

export function protoType(name: "UserSecurityRole" | "Firm" | "ChangePassword" | "TokenPair"): protobuf.Type {
  return protoRoot().lookupType(`ecfx.${name}`);
}

export function encodeMessage(name: Parameters<typeof protoType>[0], value: Record<string, unknown>): Uint8Array {
  const type = protoType(name);
  return type.encode(type.fromObject(value)).finish();
}

export function decodeMessage<T = Record<string, unknown>>(name: Parameters<typeof protoType>[0], bytes: Uint8Array): T {
  const type = protoType(name);
  return type.toObject(type.decode(bytes), { enums: String, longs: Number, defaults: true, arrays: true }) as T;
}
