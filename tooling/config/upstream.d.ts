export declare const SHARED_DIR: string;
export declare const REFERENCE_DIR: string;
export declare function upstreamReference(): { available: boolean; dir: string; reason: string };
export declare function resolveRef(doc: Record<string, unknown>, node: unknown): Record<string, unknown>;
export declare function serviceNameFor(name: string): string | undefined;
export declare function upstreamDigest(): string;
