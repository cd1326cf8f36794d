import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredToken, TokenStore } from "../dms/vendor-target";
import { OutboundGuard } from "../outbound/guard";
import { PacerSession } from "./pacer-session";
import { CourtConnector, RetryableFetchError } from "./connector";
import { PacerUnavailableError, pacerCookie, pacerSignIn } from "./pacer-auth";
import { type CourtSimulator, PACER_REFUSAL, PACER_TEST_ACCOUNT, startCourtSimulator } from "./simulator";

// The PACER sign-in client against the court simulator's Authentication API (which refuses and
// records requests off the contract), and against a server answering what PACER should not.

let simulator: CourtSimulator;
let odd: http.Server;
let oddUrl = "";
let oddAnswer: (res: http.ServerResponse) => void = (res) => res.end();

const connectorFor = (...origins: string[]) =>
  new CourtConnector({ timeoutMs: 2000, perCourtConcurrency: 2, maxBytes: 1_000_000, guard: new OutboundGuard({ allowedOrigins: origins }) });

function memoryTokens(): TokenStore & { kept: StoredToken | null } {
  const store = {
    kept: null as StoredToken | null,
    read: async () => store.kept,
    write: async (token: StoredToken) => void (store.kept = token),
    clear: async () => void (store.kept = null),
  };
  return store;
}

beforeAll(async () => {
  simulator = await startCourtSimulator();
  odd = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => oddAnswer(res));
  });
  await new Promise<void>((resolve) => odd.listen(0, "127.0.0.1", resolve));
  oddUrl = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await simulator?.close();
  await new Promise<void>((resolve) => odd.close(() => resolve()));
});

describe("PACER's Authentication API", () => {
  const account = { loginId: PACER_TEST_ACCOUNT.loginId, password: PACER_TEST_ACCOUNT.password, clientCode: "docketing", redactFlag: true };

  it("signs the test account in with its client code and redaction flag, as the contract says", async () => {
    const answer = await pacerSignIn(connectorFor(simulator.url).providerFetch, simulator.url, account);
    expect(answer).toMatchObject({ kind: "signed-in", notice: "" });
    expect(answer.kind === "signed-in" && answer.token).toMatch(/^[0-9a-f]{128}$/);
    expect(simulator.contractViolations()).toEqual([]);
    expect(pacerCookie("abc", "docketing")).toBe("NextGenCSO=abc; PacerClientCode=docketing");
    expect(pacerCookie("abc", null)).toBe("NextGenCSO=abc");
  });

  it("answers PACER's refusal in PACER's words", async () => {
    const answer = await pacerSignIn(connectorFor(simulator.url).providerFetch, simulator.url, { ...account, password: "wrong" });
    expect(answer).toEqual({ kind: "refused", loginResult: "13", description: PACER_REFUSAL });
  });

  it("passes on a notice PACER gives with a sign-in", async () => {
    oddAnswer = (res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ nextGenCSO: "t0k3n", loginResult: "0", errorDescription: "Client code required for search" }));
    expect(await pacerSignIn(connectorFor(oddUrl).providerFetch, oddUrl, account)).toEqual({
      kind: "signed-in",
      token: "t0k3n",
      notice: "Client code required for search",
    });
  });

  it("counts a sign-in without a token as refused, never as signed in", async () => {
    oddAnswer = (res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ loginResult: "0", errorDescription: "" }));
    expect(await pacerSignIn(connectorFor(oddUrl).providerFetch, oddUrl, account)).toMatchObject({ kind: "refused", loginResult: "0" });
  });

  it("tries again later when PACER is busy, answers no JSON, or more than a sign-in answer", async () => {
    const busy = async (answer: typeof oddAnswer) => {
      oddAnswer = answer;
      const error = await pacerSignIn(connectorFor(oddUrl).providerFetch, oddUrl, account).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PacerUnavailableError);
      expect(error).toBeInstanceOf(RetryableFetchError);
    };
    await busy((res) => res.writeHead(429, { "retry-after": "60" }).end());
    await busy((res) => res.writeHead(502).end("Bad gateway"));
    await busy((res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>maintenance</html>"));
    await busy((res) => res.writeHead(200, { "content-type": "application/json" }).end(`{"errorDescription":"${"x".repeat(70_000)}"}`));
    simulator.failPacerAuth(503);
    await expect(pacerSignIn(connectorFor(simulator.url).providerFetch, simulator.url, account)).rejects.toBeInstanceOf(PacerUnavailableError);
    simulator.failPacerAuth(null);
  });

  it("never reaches a host of no court, nor PACER over plain http", async () => {
    const fetch = connectorFor().providerFetch;
    await expect(pacerSignIn(fetch, "https://login.example.com", account)).rejects.toThrow(/example\.com/);
    await expect(pacerSignIn(fetch, "http://pacer.login.uscourts.gov", account)).rejects.toThrow(/https/i);
  });
});

describe("a firm's PACER session", () => {
  const sessionOf = (password: string, tokens = memoryTokens(), refusals: string[] = []) => ({
    tokens,
    refusals,
    session: new PacerSession({
      account: { loginId: PACER_TEST_ACCOUNT.loginId, password, redactFlag: false },
      authUrl: simulator.url,
      fetch: connectorFor(simulator.url).providerFetch,
      tokens,
      onRefused: async (reason) => void refusals.push(reason),
    }),
  });

  it("signs in once and reuses the kept token until asked to renew it", async () => {
    const { session, tokens } = sessionOf(PACER_TEST_ACCOUNT.password);
    const before = simulator.pacerSignIns().signedIn;
    const first = await session.signIn(false);
    expect(first).toMatchObject({ kind: "signed-in", fresh: true });
    expect(await session.signIn(false)).toEqual({ ...first, fresh: false, notice: undefined });
    expect(simulator.pacerSignIns().signedIn).toBe(before + 1);
    const renewed = await session.signIn(true);
    expect(renewed).toMatchObject({ kind: "signed-in", fresh: true });
    expect(renewed).not.toEqual(first);
    expect(tokens.kept?.accessToken).toBeTruthy();
    expect(simulator.pacerSignIns().signedIn).toBe(before + 2);
  });

  it("keeps a refusal: one call to PACER and one report, however many documents follow", async () => {
    const { session, refusals } = sessionOf("wrong");
    const before = simulator.pacerSignIns().refused;
    for (let i = 0; i < 3; i++) expect(await session.signIn(i > 0)).toMatchObject({ kind: "refused" });
    expect(simulator.pacerSignIns().refused).toBe(before + 1);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain(PACER_REFUSAL);
    expect(refusals[0]).not.toContain("wrong");
    // Testing the connection asks PACER again.
    expect(await session.signInNow()).toMatchObject({ kind: "refused" });
    expect(simulator.pacerSignIns().refused).toBe(before + 2);
  });
});
