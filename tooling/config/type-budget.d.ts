export interface TypeBudget {
  /** `type-budget/tsconfig.<consumer>.json` in the package. */
  consumer: string;
  description: string;
  maxInstantiations: number;
  /** Substrings of declaration-file paths the consumer's program must not load. */
  forbiddenFiles?: readonly string[];
}

export function runTypeBudget(packageDir: string, budgets: readonly TypeBudget[]): number;
