export declare function bundleSandbox(outfile: string): Promise<{ modules: number; ms: number }>;
