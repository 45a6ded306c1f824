// Runs pinned to deployments on one world-postgres database: an emulation, because the SDK cannot
// do it there. Every message the runtime enqueues for a run carries that run's `deploymentId`
// (`start`, `resumeHook`, a re-enqueued run), but world-postgres ignores it: all its processes on
// a database share one job queue, reports 'postgres' as every process's deployment, and any app
// server would execute any run with its own build. A platform with atomic deployments routes each
// message to the deployment its run is pinned to; this does the same with what world-postgres has,
// a job queue name per `jobPrefix`:
//  - deployment `id` has its own job queue (`jobPrefixOf(id)`); its app server's world consumes
//    only that one (server.mjs, `HOOKWIRE_E2E_DEPLOYMENT=id`);
//  - `pinned(worlds, id)` answers `id` as the current deployment and puts each message on the job
//    queue of `options.deploymentId` (messages without one — a step queued by a run, a run
//    re-queued by a step — stay in the enqueuing deployment);
//  - at start, a deployment re-enqueues only its own active runs (world-postgres's `start` would
//    re-enqueue every run on the database onto the starting process's queue).
// Runs, events, hooks and steps stay in the one database every deployment shares. A rollback is
// then what it is on such a platform: deployment `id` served by another build.

/** The job queue prefix of a deployment (graphile-worker task names: [a-z0-9_]). */
export const jobPrefixOf = (deploymentId) => `${deploymentId.toLowerCase().replace(/[^a-z0-9]/g, "_")}_`;

/** A world-postgres world for deployment `id` (its own job queue). */
export async function postgresWorld(id) {
  const { createWorld } = await import("@workflow/world-postgres");
  return createWorld({ connectionString: process.env.WORKFLOW_POSTGRES_URL, ...(id ? { jobPrefix: jobPrefixOf(id) } : {}) });
}

/**
 * The world of deployment `id`: `worlds` maps deployment ids to world-postgres worlds on the same
 * database (`worlds[id]` is this process's own; another one only where this process writes for
 * that deployment: a producer).
 */
export function pinned(worlds, id) {
  const world = worlds[id];
  const queue = (name, message, options) => {
    const target = worlds[options?.deploymentId ?? id];
    if (!target) throw new Error(`no route to deployment ${options?.deploymentId}`);
    return target.queue(name, message, options);
  };
  return {
    ...world,
    queue,
    getDeploymentId: async () => id,
    async start() {
      // world.start() re-enqueues what `runs.list` answers: for its duration, only this
      // deployment's runs.
      const list = world.runs.list;
      world.runs.list = async (params) => {
        const page = await list.call(world.runs, params);
        return { ...page, data: page.data.filter((run) => run.deploymentId === id) };
      };
      try {
        await world.start?.();
      } finally {
        world.runs.list = list;
      }
    },
    async close() {
      for (const w of new Set(Object.values(worlds))) await w.close?.();
    },
  };
}
