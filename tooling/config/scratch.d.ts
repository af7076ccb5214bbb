export declare function scratchDir(prefix: string): string;
export declare function removeScratchDirs(): void;
