/** The inspector's stylesheet, served as `/inspector/inspector.css`: one column that fits 360 px, visible keyboard focus. */
export const INSPECTOR_STYLESHEET = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.4; }
body { margin: 0 auto; max-width: 70rem; padding: 0.75rem; }
h1 { font-size: 1.4rem; margin: 0.25rem 0; }
h2 { font-size: 1.15rem; margin: 1.25rem 0 0.25rem; border-bottom: 1px solid #8886; }
h3 { font-size: 1rem; margin: 0.75rem 0 0.25rem; }
label { display: block; margin-top: 0.5rem; }
input, select, button { font: inherit; padding: 0.3rem 0.5rem; max-width: 100%; box-sizing: border-box; }
input:not([type]), input[type=password] { width: 100%; }
input[type=checkbox] { width: auto; }
button { cursor: pointer; margin: 0.25rem 0.25rem 0.25rem 0; }
:focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
.row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem; }
.row label { margin: 0; }
.hint, .bound { color: #777; font-size: 0.9rem; margin: 0.25rem 0; }
#error { color: #c5221f; font-weight: 600; }
#error:empty, #status:empty { display: none; }
nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; list-style: none; padding: 0; margin: 0.5rem 0; }
details.item { border: 1px solid #8886; border-radius: 4px; margin: 0.35rem 0; padding: 0.25rem 0.5rem; }
summary { cursor: pointer; overflow-wrap: anywhere; padding: 0.15rem 0; }
dl { display: grid; grid-template-columns: minmax(6rem, max-content) 1fr; gap: 0.1rem 0.75rem; margin: 0.5rem 0; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #8881; padding: 0.5rem; margin: 0.25rem 0; font-size: 0.85rem; }
ul.lines { padding-left: 1.1rem; margin: 0.25rem 0; overflow-wrap: anywhere; }
ol.attempts { padding-left: 1.1rem; }
@media (max-width: 30rem) { dl { grid-template-columns: 1fr; } dd { margin-bottom: 0.3rem; } }
`;
