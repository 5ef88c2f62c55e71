// The plotting library is loaded by a <script> of its own (its UMD file, as the package ships it), which sets
// the global Plot; the page scripts use it through the package's own types.
import type * as PlotModule from '@observablehq/plot';

declare global {
  const Plot: typeof PlotModule;
}
