import Foundation
import Inspector

exit(RewindCommandLine.run(Array(CommandLine.arguments.dropFirst())))
