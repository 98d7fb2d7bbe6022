// Command-line values of SeedKitCodegen's choices: `--access public|internal` (`seedkit generate`)
// and `--format mermaid|dot` (`seedkit model`), parsed from their raw values.
import ArgumentParser
import SeedKitCodegen

extension SwiftCodeGenerator.Access: ExpressibleByArgument {}

extension ModelDiagram.Format: ExpressibleByArgument {}
