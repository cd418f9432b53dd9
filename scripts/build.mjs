// `npm run build` (and `npm pack`, through prepack): compiles src/ to dist/ with declarations,
// and copies the plain JavaScript modules tsc does not emit (the worker thread's boot file, the
// reaper of server processes).
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { newestSourceMtimeMs } from '../bin/sourceStamp.mjs';

rmSync('dist', { recursive: true, force: true });
// Read before compiling: a file saved during the build makes the stamp older than it, so bin/ runs the source.
const newest = newestSourceMtimeMs('src');
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
copyFileSync('src/campaign/workerBoot.mjs', 'dist/campaign/workerBoot.mjs');
// The trace viewer's page, bundled from src/report/html/page/ and committed (npm run build:viewer).
copyFileSync('src/report/html/viewer.template.html', 'dist/report/html/viewer.template.html');
copyFileSync('src/real/reaper.mjs', 'dist/real/reaper.mjs');
copyFileSync('src/targets/client/scriptedServer.mjs', 'dist/targets/client/scriptedServer.mjs');
// bin/mcp-sim.js runs dist/ from a clone too while no file of src/ is newer than this build.
writeFileSync('dist/.source-stamp.json', `${JSON.stringify({ newestSourceMtimeMs: newest })}\n`);
