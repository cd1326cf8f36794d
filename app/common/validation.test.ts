import { describe, expect, it } from "vitest";
import { addressOrDomainList, emailList } from "./validation";

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((i) => i.message) ?? [];

describe("lists of e-mail addresses", () => {
  it("say 'Email added already' for a repeated address, in any letter case", () => {
    expect(messages(emailList().safeParse(["clerk@court.test", "Clerk@Court.test"]))).toEqual(["errors:emailAddedAlready"]);
  });

  it("of addresses or domains say it for a repeated address, and 'Item is already in the list' for a repeated domain", () => {
    expect(messages(addressOrDomainList().safeParse(["clerk@court.test", "court.test", "CLERK@court.test"]))).toEqual(["errors:emailAddedAlready"]);
    expect(messages(addressOrDomainList().safeParse(["court.test", "Court.test"]))).toEqual(["errors:itemInList"]);
  });
});
