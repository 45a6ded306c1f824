// The app server of the end-to-end suite: world-local plus the SDK-built workflow and step
// bundles, served over HTTP on loopback the way the SDK's standalone target expects.
// Usage: node server.mjs PORT DATA_DIR [APP_DIR]   (prints "ready" when it listens)
// With HOOKWIRE_E2E_DEPLOYMENT set (world-postgres), it serves the runs of that deployment only
// (deployments.mjs).
import http from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setWorld } from "@workflow/core/runtime";
import { pinned, postgresWorld } from "./deployments.mjs";

const [port, dataDir] = [Number(process.argv[2]), process.argv[3]];
const app = process.argv[4] ?? join(dirname(fileURLToPath(import.meta.url)), "app");
const built = join(app, ".well-known", "workflow", "v1");
// world-local by default; world-postgres when WORKFLOW_POSTGRES_URL is set (its queue delivers to
// the app over HTTP on PORT).
process.env.PORT = String(port);
const deployment = process.env.HOOKWIRE_E2E_DEPLOYMENT;
const world = deployment
  ? pinned({ [deployment]: await postgresWorld(deployment) }, deployment)
  : process.env.WORKFLOW_POSTGRES_URL
    ? await postgresWorld()
    : (await import("@workflow/world-local")).createLocalWorld({ dataDir, port });
setWorld(world);
const require = createRequire(import.meta.url);
const routes = {
  "/.well-known/workflow/v1/flow": require(join(built, "flow.js")).POST,
  "/.well-known/workflow/v1/step": require(join(built, "step.js")).POST,
};
const server = http.createServer(async (req, res) => {
  // A delivery unanswered for 30 s is logged (the queue waits for its answer without a deadline).
  const slow = setTimeout(() => console.error(`[server] unanswered after 30 s: ${req.url} ${req.headers["x-vqs-queue-name"]} ${req.headers["x-vqs-message-id"]}`), 30_000);
  res.on("close", () => clearTimeout(slow));
  try {
    const url = new URL(req.url, `http://127.0.0.1:${port}`);
    const handler = routes[url.pathname];
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
    const response = await handler(new Request(url, { method: req.method, headers: req.headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (e) {
    res.writeHead(500).end(String(e?.stack ?? e));
  }
});
server.listen(port, "127.0.0.1", async () => {
  await world.start?.();
  console.log("ready");
});
// Close the world before the HTTP server (its workers may still be delivering); whatever does
// not close within 5 s (a pool client a PostgreSQL restart broke can keep it from closing) is
// left to the exit.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, async () => {
    setTimeout(() => process.exit(0), 5000).unref();
    await Promise.resolve(world.close?.()).catch(() => {});
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
