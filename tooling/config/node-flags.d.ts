/** The flags `command` passes to `node`, each written `--name=value`; throws on any other form. */
export declare function nodeFlagsOf(command: string): string[];
/** The flags of the root `sandbox` script: those the repository runs the sandbox with. */
export declare function sandboxNodeFlags(): string[];
