// `npm test` runs this first (the `pretest` script): the suite needs two system programs that npm
// cannot install, Debian's Chromium (the browser tests) and PostgreSQL's server programs (the
// scale-out and fault tests). Missing ones are installed with apt-get when this runs as root, as
// on CI; otherwise it names the exact command and stops, so the suite never half-runs.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { findPostgresBin } from "../tests/support/postgres";

/** A system program the suite needs, how to tell it is there, and the Debian package that brings it. */
interface Prerequisite {
  what: string;
  present: () => boolean;
  debianPackage: string;
}

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const PREREQUISITES: readonly Prerequisite[] = [
  {
    what: `Chromium (${chromium}; set CHROMIUM_PATH to use another)`,
    present: () => existsSync(chromium),
    debianPackage: "chromium",
  },
  {
    what: "PostgreSQL's server programs (/usr/lib/postgresql/*/bin)",
    present: () => {
      try {
        findPostgresBin();
        return true;
      } catch {
        return false;
      }
    },
    debianPackage: "postgresql",
  },
];

function run(command: string, args: readonly string[]): void {
  process.stderr.write(`npm test: ${command} ${args.join(" ")}\n`);
  const result = spawnSync(command, args, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`})`,
    );
  }
}

const missing = PREREQUISITES.filter((prerequisite) => !prerequisite.present());
if (missing.length > 0) {
  const packages = missing.map((prerequisite) => prerequisite.debianPackage);
  const names = missing.map((prerequisite) => prerequisite.what).join(" and ");
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
  if (!isRoot || !hasApt) {
    process.stderr.write(
      `npm test needs ${names}, which npm cannot install.\n` +
        (hasApt
          ? `Install them, then run npm test again:\n  sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}\n`
          : `Install the packages that provide them (on Debian: apt-get install -y ${packages.join(" ")}), then run npm test again.\n`),
    );
    process.exit(1);
  }
  process.stderr.write(`npm test: installing ${names}\n`);
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", ...packages]);
  const still = missing.filter((prerequisite) => !prerequisite.present());
  if (still.length > 0) {
    process.stderr.write(
      `npm test: ${still.map((each) => each.what).join(" and ")} still missing after apt-get\n`,
    );
    process.exit(1);
  }
}
