// bottleneck's light build (no Redis clustering) is what the Octokit plugins load; its types are
// the full build's.
declare module "bottleneck/light.js" {
  import Bottleneck from "bottleneck";
  export default Bottleneck;
}
