import { writeInspectorScript } from '../src/http/pages/inspector/script-bundle.js';

console.log(`wrote ${await writeInspectorScript()}`);
