import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrepickServer } from "../../server/server";
import { startServer } from "../../server/testing/harness";
import { refactorer } from "../../server/testing/test-agents";
import { chatBody, intakeId } from "../support/agent-api";
import { type ApiResponse, apiClient, readBody } from "../support/api-client";
import { type PostgresCluster, startPostgres } from "../support/postgres";
import { readFrames } from "../support/sse";
import { waitFor } from "../support/wait-for";

// PostgreSQL stopped under load, then started again. A request that meets the outage answers 503
// with Retry-After (never a 500), and every run the server acknowledged (a chat answered 200, an
// answer answered 200) finishes. The lease is ten minutes, far past the test's own bounds: a run
// left to wait out its lease, rather than handed back the moment the store answered, never ends.
const CLIENTS = 6;
const RUNS_PER_CLIENT = 8;
const OUTAGE_AFTER = 12;
const OUTAGE_MS = 1_500;
const LEASE_MS = 600_000;
const MAX_ATTEMPTS = 200;

let cluster: PostgresCluster | undefined;
let server: PrepickServer | undefined;

beforeAll(async () => {
  cluster = await startPostgres("store_outage");
  server = await startServer({
    agents: [refactorer],
    databaseUrl: cluster.url,
    leaseMs: LEASE_MS,
    scriptedLatencyMs: 20,
  });
}, 90_000);

afterAll(async () => {
  await server?.close();
  await cluster?.stop();
}, 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the store stopped under load", { timeout: 240_000 }, () => {
  it("answers 503 with Retry-After while it is down, and every acknowledged run then finishes", async () => {
    if (!server || !cluster) throw new Error("the server or PostgreSQL did not start");
    const { url } = server;
    const faults = cluster;
    const statuses: { what: string; status: number; retryAfter: string | null }[] = [];
    const acknowledged = new Set<string>();
    let started = 0;
    let outage: Promise<void> | undefined;

    /** Sends a request until the store answers: a 503 waits its Retry-After and goes again. */
    const untilAnswered = async (what: string, send: () => Promise<ApiResponse>): Promise<ApiResponse> => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        let response: ApiResponse;
        try {
          response = await send();
        } catch {
          // A stream or a socket cut by the outage: the request may not have arrived; send it again.
          await sleep(100);
          continue;
        }
        statuses.push({ what, status: response.status, retryAfter: response.headers.get("retry-after") });
        if (response.status !== 503) return response;
        await sleep(Number(response.headers.get("retry-after") ?? "1") * 1_000);
      }
      throw new Error(`${what} got no answer in ${MAX_ATTEMPTS} attempts`);
    };

    const client = async (index: number) => {
      const api = apiClient(url, `outage-${index}`);
      for (let turn = 0; turn < RUNS_PER_CLIENT; turn++) {
        started += 1;
        if (started === OUTAGE_AFTER) {
          outage = (async () => {
            await faults.suspend();
            await sleep(OUTAGE_MS);
            await faults.resume();
          })();
        }
        const threadId = `outage-${index}-${turn}`;
        const chat = await untilAnswered(`chat ${threadId}`, async () => {
          const response = await api.postStream(
            "/agent/chat",
            chatBody("refactorer", "Refactor it", threadId),
          );
          if (response.status !== 200) {
            return { status: response.status, headers: response.headers, body: await readBody(response) };
          }
          const runId = response.headers.get("x-run-id");
          await readFrames(response).catch(() => undefined);
          return { status: response.status, headers: response.headers, body: { runId } };
        });
        // A chat whose run was stored though its answer was lost to the outage is refused as busy
        // when sent again, naming that run, which goes on.
        expect([200, 409], `chat ${threadId}: ${JSON.stringify(chat.body)}`).toContain(chat.status);
        const runId = String((chat.body as { runId: string }).runId);
        acknowledged.add(runId);
        await waitFor(
          `${runId} to ask its questions`,
          async () => {
            const listed = await untilAnswered("approvals", () => api.get("/agent/approvals?limit=200"));
            const ids = (listed.body as { approvals: { id: string }[] }).approvals.map((call) => call.id);
            return ids.includes(intakeId(runId)) ? true : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 50 },
        );
        const answer = await untilAnswered(`answer ${runId}`, () =>
          api.post("/agent/tool-call/answer", { toolCallId: intakeId(runId) }),
        );
        // 409: an earlier attempt's answer was stored though its response was lost.
        expect([200, 409], `answer ${runId}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
      }
    };

    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
    await outage;

    const refused = statuses.filter(({ status }) => status === 503);
    expect(refused.length, "some requests met the outage").toBeGreaterThan(0);
    expect(refused.every(({ retryAfter }) => retryAfter !== null && Number(retryAfter) > 0)).toBe(true);
    expect(statuses.filter(({ status }) => status >= 500 && status !== 503)).toEqual([]);

    const ids = JSON.stringify([...acknowledged]);
    const unfinished = () =>
      server?.store.db.query<Record<string, unknown>>(
        `SELECT r.id, r.status, r.lease_owner IS NOT NULL AS leased, r.wake_pending, r.waiting_on,
           (SELECT string_agg(t.status, ',') FROM prepick_tool_calls t WHERE t.run_id = r.id) AS calls
         FROM prepick_runs r WHERE r.id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND r.status <> 'completed'`,
        [ids],
      ) ?? [];
    const left = await waitFor(
      "every acknowledged run to finish",
      async () => {
        const rows = await unfinished();
        return rows.length === 0 ? rows : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    ).catch(async () => unfinished());
    expect(left).toEqual([]);
    expect(acknowledged.size).toBe(CLIENTS * RUNS_PER_CLIENT);
  });
});
