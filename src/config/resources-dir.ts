/** The resource files' folder: the one given, else VCW_RESOURCES_DIR, else ./resources. */
export const resourcesDir = (dir?: string) => dir ?? process.env.VCW_RESOURCES_DIR ?? "resources";
