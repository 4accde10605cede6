import type * as React from "react";
import { cn } from "@/lib/utils";
import { AGENT_NOTES, type HostedAgent } from "./agents";

/** Props of {@link AgentPicker}. */
export interface AgentPickerProps extends Omit<React.ComponentProps<"fieldset">, "onChange"> {
  /** The agents the server hosts. */
  agents: HostedAgent[];
  /** The chosen agent's name. */
  value: string;
  /** Called with the name of the agent the person picks. */
  onValueChange(name: string): void;
}

/** What an agent asks the person, in a few words: its intake, its own questions, its approvals. */
function asksLine(agent: HostedAgent): string {
  const count = agent.intake?.questions.length ?? 0;
  const approvals = (agent.tools ?? []).filter((tool) => tool.needsApproval).map((tool) => tool.name);
  const parts: string[] = [];
  if (count > 0) {
    const when = agent.intake?.when === "every-turn" ? "before every turn" : "on a thread's first turn";
    parts.push(`Intake: ${count} question${count === 1 ? "" : "s"} ${when}`);
  } else if (agent.ask) {
    parts.push("Asks through the model when it needs to");
  }
  if (approvals.length > 0) parts.push(`Asks your approval before ${approvals.join(", ")}`);
  return parts.length > 0 ? parts.join(". ") : "Asks nothing";
}

/** The demo's agent picker: one radio card per hosted agent, with what it shows. */
export function AgentPicker({ agents, value, onValueChange, className, ...props }: AgentPickerProps) {
  return (
    <fieldset data-slot="agent-picker" className={cn("flex flex-col gap-2", className)} {...props}>
      <legend className="mb-2 text-sm font-medium text-muted-foreground">Agent</legend>
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
              <span className="font-medium">{agent.name}</span>
            </span>
            <span className="text-sm text-muted-foreground">
              {AGENT_NOTES[agent.name]?.summary ?? asksLine(agent)}
            </span>
            <span className="text-xs text-muted-foreground">{asksLine(agent)}</span>
          </label>
        );
      })}
    </fieldset>
  );
}
