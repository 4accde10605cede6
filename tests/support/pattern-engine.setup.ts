// Unit tests call the core's checks directly, as the server does once it has loaded the engine.
import { loadPatternEngine } from "../../src/core/pattern";

await loadPatternEngine();
