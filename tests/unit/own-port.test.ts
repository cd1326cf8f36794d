import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { listenOnOwnPort } from "../../server/api/own-port";

// A copy's API on a port of its own answers as on the shared one: the same routes, hooks and
// not-found answer, with the same connection limits, on loopback only.

describe("the API on a port of its own", () => {
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  async function twoPorts() {
    const api = Fastify({ keepAliveTimeout: 61_000, requestTimeout: 45_000, connectionTimeout: 50_000, maxRequestsPerSocket: 500 });
    api.addHook("onSend", async (_request, reply) => void reply.header("x-hooked", "yes"));
    api.get("/hello/:name", async (request) => ({ hello: (request.params as { name: string }).name }));
    api.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: "Not found." }));
    const shared = await api.listen({ port: 0, host: "127.0.0.1" });
    closing.push(() => api.close());
    const own = await listenOnOwnPort(api);
    closing.push(() => own.close());
    return { shared, own };
  }

  it("answers every route, hook and unknown path as the shared port does", async () => {
    const { shared, own } = await twoPorts();
    expect(own.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(own.url).not.toBe(shared);
    for (const base of [shared, own.url]) {
      const hello = await fetch(`${base}/hello/ecfx`);
      expect(hello.status).toBe(200);
      expect(hello.headers.get("x-hooked")).toBe("yes");
      expect(await hello.json()).toEqual({ hello: "ecfx" });
      const missing = await fetch(`${base}/nowhere`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ message: "Not found." });
    }
  });

  it("keeps the shared port's connection limits and stops answering once closed", async () => {
    const { shared, own } = await twoPorts();
    // Node states the keep-alive time and the requests a connection may carry in every answer.
    const keepAlive = async (base: string) => (await fetch(`${base}/hello/limits`)).headers.get("keep-alive");
    expect(await keepAlive(shared)).toBe("timeout=61, max=500");
    expect(await keepAlive(own.url)).toBe(await keepAlive(shared));
    await closing.pop()!();
    await expect(fetch(`${own.url}/hello/again`)).rejects.toThrow();
    expect((await fetch(`${shared}/hello/again`)).status).toBe(200);
  });
});
