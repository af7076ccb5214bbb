export declare const SHARED_DIR: string;
export declare const REFERENCE_DIR: string;
export declare function upstreamReference(): { available: boolean; dir: string; reason: string };
