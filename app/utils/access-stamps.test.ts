import { expect, it } from "vitest";
import { ACCESS_STAMP_HEADER } from "../common/access-stamp";
import { noteAccessStamp, onAccessChange } from "./access-stamps.server";

const forgotten: string[] = [];
onAccessChange((token) => forgotten.push(token));
const answer = (stamp?: string) => new Response(null, { headers: stamp ? { [ACCESS_STAMP_HEADER]: stamp } : {} });

it("forgets a session when its stamp moves, not when it is first seen, repeated or missing", () => {
  noteAccessStamp("token-a", answer("one"));
  noteAccessStamp("token-b", answer("one"));
  noteAccessStamp("token-a", answer("one"));
  noteAccessStamp("token-a", answer());
  expect(forgotten).toEqual([]);

  noteAccessStamp("token-a", answer("two"));
  expect(forgotten).toEqual(["token-a"]);
  noteAccessStamp("token-a", answer("two"));
  noteAccessStamp("token-b", answer("one"));
  expect(forgotten).toEqual(["token-a"]);
  noteAccessStamp("token-b", answer("two"));
  expect(forgotten).toEqual(["token-a", "token-b"]);
});
