// A process that starts a cluster and then hangs, for the test that kills it without cleanup.
import { startPostgres } from "./postgres";

const cluster = await startPostgres("orphan");
console.log(JSON.stringify({ url: cluster.url, directory: cluster.directory }));
setInterval(() => undefined, 60_000);
