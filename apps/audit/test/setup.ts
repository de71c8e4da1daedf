import "effect/schema/SchemaJITCompiler/enable"
