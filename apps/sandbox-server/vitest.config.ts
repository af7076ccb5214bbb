import { defineConfig } from 'vitest/config';
import { vitestPreset } from '@switchyard/tooling/vitest';

export default defineConfig({ ...vitestPreset, test: { ...vitestPreset.test, globalSetup: ['./src/test-support/cli-bundle-setup.ts'] } });
