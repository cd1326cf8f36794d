// `ecfx parse` as the compiled bin runs it: one CommonJS bundle with nothing else of the command
// in it, because a parse of one e-mail is over in a tenth of a second and every module loaded
// (and Node's ES module loader itself, about 2 MB) counts in its start-up time and memory.
import { parseCommand } from "./parse";
import { runCommand } from "./run-command";

runCommand(async () => parseCommand, process.argv.slice(3));
