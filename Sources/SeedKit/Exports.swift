// `import SeedKit` is the one import an app needs (docs/Architecture.md): the seed builder and loader, and
// the modules below them — models, stores and contexts, plans and imports, deep copies, migrations.
@_exported import DeepCopy
@_exported import GraphStore
@_exported import ModelFiles
@_exported import SeedImport
@_exported import StoreMigration
