export declare function deployPackage(name: string, dir: string): Promise<string>;
