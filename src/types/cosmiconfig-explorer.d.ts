// cosmiconfig 9 ships ExplorerSync without public types (it is marked @internal);
// ralf constructs it directly to skip the meta-config lookup (see src/config/read-json-file.ts).
declare module 'cosmiconfig/dist/ExplorerSync.js' {
  import type { CosmiconfigResult, LoaderSync } from 'cosmiconfig';
  export class ExplorerSync {
    constructor(options: {
      moduleName: string;
      cache: boolean;
      searchStrategy: 'none';
      searchPlaces: string[];
      ignoreEmptySearchPlaces: boolean;
      stopDir: undefined;
      packageProp: string;
      transform: (result: CosmiconfigResult) => CosmiconfigResult;
      metaConfigFilePath: null;
      mergeImportArrays: boolean;
      mergeSearchPlaces: boolean;
      applyPackagePropertyPathToConfiguration: boolean;
      loaders: Record<string, LoaderSync>;
    });
    load(filepath: string): CosmiconfigResult;
  }
}
