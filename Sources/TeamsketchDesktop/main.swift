import ArgumentParser
launchInstant = ContinuousClock.now

TeamsketchCommand.main()
