import { sharedSkillTree } from "./generate.ts";
import { catalogMemory } from "./memory.ts";
const t = sharedSkillTree(Number(process.argv[2] ?? 10000));
for (let i = 0; i < 4; i++) console.log(await catalogMemory(t));
