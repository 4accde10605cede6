/**
 * The test files that wait on other processes (a server, PostgreSQL, Chromium, npm install, a
 * build): the `processes` project of vitest.config.ts runs them several at a time, since they spend
 * their time waiting, not computing. Every file under tests/ is one: put a test that starts another
 * process there. The few files under server/ that start one are listed.
 */
export const PROCESS_FILES = [
  "tests/**/*.test.{ts,tsx}",
  "server/agents-module.test.ts",
  "server/agents/define-agent.test.ts",
  "server/database/data-dir-lock.test.ts",
  "server/database/database.test.ts",
];
