// Package plainfile opens regular files to read or write them whole,
// without the runtime's poller.
//
// os.Open and os.Create make every file a candidate for Go's network
// poller: on Linux each costs four fcntl calls and an epoll_ctl that a
// regular file refuses, beside the open itself, as much again as reading a
// small file. A build opens about three files a page (the page, its
// formulas and its code from the caches), so Open and Create open the file
// with the system call alone and give it to os.NewFile, which leaves a
// blocking descriptor off the poller. Elsewhere than on Unix they are
// os.Open and os.Create.
package plainfile
