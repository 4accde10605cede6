import { specIntake } from "../../../src/core/spec-examples";
import { Agent, Injectable } from "../define-agent";

/** The spec's intake example, written with the `@Agent` decorator as the spec shows it. */
@Agent({
  name: "refactorer",
  systemPrompt: "You refactor TypeScript.",
  intake: specIntake,
})
@Injectable()
export class RefactorerAgent {}
