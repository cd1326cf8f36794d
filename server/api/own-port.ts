import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";

export interface OwnPort {
  /** Where this process's API answers on its own port, e.g. `http://127.0.0.1:40123`. */
  url: string;
  close(): Promise<void>;
}

/**
 * The API of this process on a loopback port no other process shares, beside the port its copies
 * share. A copy's console asks its API here: through the shared port a page's call would go to
 * whichever copy took the connection, and there wait behind that copy's pages while its own copy
 * may sit idle (decision 084). The same requests, routes and checks as on the shared port.
 */
export async function listenOnOwnPort(api: FastifyInstance): Promise<OwnPort> {
  await api.ready();
  const server = http.createServer(api.routing);
  // The shared port's limits, as Fastify set them on its own server.
  server.keepAliveTimeout = api.server.keepAliveTimeout;
  server.requestTimeout = api.server.requestTimeout;
  server.timeout = api.server.timeout;
  server.maxRequestsPerSocket = api.server.maxRequestsPerSocket;
  // Exclusive: in a cluster's copy a listen is otherwise the port the primary shares among copies.
  server.listen({ port: 0, host: "127.0.0.1", exclusive: true });
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
