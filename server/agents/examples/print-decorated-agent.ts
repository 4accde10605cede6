// Run under tsx (esbuild lowers the standard decorators): prints what `@Agent` recorded and what
// checkAgents makes of it, so a test can compare them with the undecorated form.
import { loadPatternEngine } from "prepick/core";
import { checkAgents } from "../check-agents";
import { agentOf, isAgentClass } from "../define-agent";
import { RefactorerAgent } from "./refactorer-agent";

await loadPatternEngine();

class Plain {}

process.stdout.write(
  JSON.stringify({
    recorded: agentOf(RefactorerAgent),
    checked: checkAgents([RefactorerAgent]),
    isAgentClass: isAgentClass(RefactorerAgent),
    plainIsAgentClass: isAgentClass(Plain),
    instance: new RefactorerAgent() instanceof RefactorerAgent,
  }),
);
