import { defineConfig } from 'vitest/config';
import { vitestPreset } from '@switchyard/tooling/vitest';

export default defineConfig(vitestPreset);
