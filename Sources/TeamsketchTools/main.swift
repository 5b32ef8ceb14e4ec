import ArgumentParser

ToolsCommand.main()
