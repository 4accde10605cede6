import { config } from "zod/v4/core";

// Before any schema exists: zod probes `new Function("")` to decide whether to compile its object
// parsers, and the page's Content-Security-Policy (no 'unsafe-eval') reports that probe as a
// violation. Parsing without compiled parsers is as correct, and the page parses little.
config({ jitless: true });
