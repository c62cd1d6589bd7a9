export { buildCatalogue, type Catalogue } from './buildCatalogue';
export { CatalogueCache, signInLapsed, type CachedCatalogue } from './catalogueCache';
export { normalizeTools, type NormalizedTools, type ServerTool } from './normalizeTools';
export { assignQualifiedNames, ownsToolKey, qualifyToolName } from './qualifiedNames';
