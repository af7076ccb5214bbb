import { writeInspectorScript } from '../src/http/inspector/script-bundle.js';

console.log(`wrote ${await writeInspectorScript()}`);
