module aeroplane

go 1.26
