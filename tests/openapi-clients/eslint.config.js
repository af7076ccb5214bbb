export { default } from '@switchyard/tooling/eslint';
