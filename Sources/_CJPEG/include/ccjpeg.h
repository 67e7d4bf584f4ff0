// A small C layer over libjpeg(-turbo) for colorcube. No stable API.
#ifndef COLORCUBE_CCJPEG_H
#define COLORCUBE_CCJPEG_H
#define CCJPEG_OK 0
#define CCJPEG_ERROR 1
#endif
