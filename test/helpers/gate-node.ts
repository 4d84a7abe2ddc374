/**
 * The Node.js binary that runs the bundles (dist/*.js) as child processes in the end-to-end tests:
 * `GATE_NODE` when set (.ci/run points it at a Node 24, the runtime action.yml declares), else the
 * Node running the tests. A GATE_NODE that does not exist fails every bundle test (ENOENT), loudly.
 */
export const GATE_NODE: string = process.env["GATE_NODE"] || process.execPath;
