import ArgumentParser
import TeamsketchDesktopApp
launchInstant = ContinuousClock.now

TeamsketchCommand.main()
