export declare function refuseStaleBuild(packageDir: string, builtFile: string, buildCommand: string): void;
