import type * as React from "react";
import { cn } from "@/lib/utils";
import type { HostedAgent } from "./agents";
import type { DemoWords } from "./demo-words";

/** Props of {@link AgentPicker}. */
export interface AgentPickerProps extends Omit<React.ComponentProps<"fieldset">, "onChange"> {
  /** The agents the server hosts. */
  agents: HostedAgent[];
  /** The chosen agent's name. */
  value: string;
  /** Called with the name of the agent the person picks. */
  onValueChange(name: string): void;
  /** The page's words, in its language. */
  words: DemoWords;
}

/** What an agent asks the person, in a few words: its intake, its own questions, its approvals. */
function asksLine(agent: HostedAgent, words: DemoWords): string {
  const count = agent.intake?.questions.length ?? 0;
  const approvals = (agent.tools ?? []).filter((tool) => tool.needsApproval).map((tool) => tool.name);
  const parts: string[] = [];
  if (count > 0) parts.push(words.intake(count, agent.intake?.when === "every-turn"));
  else if (agent.ask) parts.push(words.asksThroughModel);
  if (approvals.length > 0) parts.push(words.approvalsBefore(approvals.join(", ")));
  return parts.length > 0 ? parts.join(". ") : words.asksNothing;
}

/** The demo's agent picker: one radio card per hosted agent, with what it shows. */
export function AgentPicker({ agents, value, onValueChange, words, className, ...props }: AgentPickerProps) {
  return (
    <fieldset data-slot="agent-picker" className={cn("flex flex-col gap-2", className)} {...props}>
      <legend className="mb-2 text-sm font-medium text-muted-foreground">{words.agents}</legend>
      {agents.map((agent) => {
        const checked = agent.name === value;
        return (
          <label
            key={agent.name}
            data-slot="agent-picker-option"
            data-state={checked ? "checked" : "unchecked"}
            className={cn(
              "flex cursor-pointer flex-col gap-1 rounded-lg border bg-card p-3 text-card-foreground transition-colors",
              // The border, not the background, marks the hover: muted text on the accent measures 4.34:1.
              "hover:border-muted-foreground has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring has-[:focus-visible]:outline-solid",
              "data-[state=checked]:border-primary motion-reduce:transition-none",
            )}
          >
            <span className="flex items-center gap-2">
              <input
                type="radio"
                name="agent"
                value={agent.name}
                checked={checked}
                onChange={() => onValueChange(agent.name)}
                className="size-4 accent-primary outline-none"
              />
              <bdi className="font-medium">{agent.name}</bdi>
            </span>
            <span className="text-sm text-muted-foreground">
              {words.summaries[agent.name] ?? asksLine(agent, words)}
            </span>
            <span className="text-xs text-muted-foreground">{asksLine(agent, words)}</span>
          </label>
        );
      })}
    </fieldset>
  );
}
