// Types of bench/generate.mjs for the TypeScript tests that generate the same inputs.
export declare function generateRecipe(base: string, target: { lines?: number; bytes?: number }): string;
