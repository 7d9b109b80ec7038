module golang.org/x/image

go 1.23.0

require golang.org/x/text v0.28.0
