// `npm run build` (and `npm pack`, through prepack): compiles src/ to dist/ with declarations,
// and copies the plain JavaScript modules tsc does not emit (the worker thread's boot file, the
// reaper of server processes).
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
copyFileSync('src/campaign/workerBoot.mjs', 'dist/campaign/workerBoot.mjs');
// The trace viewer's page, bundled from src/report/html/page/ and committed (npm run build:viewer).
copyFileSync('src/report/html/viewer.template.html', 'dist/report/html/viewer.template.html');
copyFileSync('src/target/reaper.mjs', 'dist/target/reaper.mjs');
